class Solution:
    def typo_distance(self, typed: str, intended: str) -> int:
        rows, cols = len(typed), len(intended)
        cost = [[0] * (cols + 1) for _ in range(rows + 1)]
        for i in range(rows + 1):
            cost[i][0] = i
        for j in range(cols + 1):
            cost[0][j] = j
        for i in range(1, rows + 1):
            for j in range(1, cols + 1):
                if typed[i - 1] == intended[j - 1]:
                    cost[i][j] = cost[i - 1][j - 1]
                else:
                    cost[i][j] = 1 + min(cost[i - 1][j], cost[i][j - 1], cost[i - 1][j - 1])
                if i > 1 and j > 1 and typed[i - 1] == intended[j - 2] and typed[i - 2] == intended[j - 1]:
                    cost[i][j] = min(cost[i][j], cost[i - 2][j - 2] + 1)
        return cost[rows][cols]
