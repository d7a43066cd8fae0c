from typing import List


class Solution:
    def stair_ways(self, n: int, broken: List[int]) -> int:
        MOD = 1_000_000_007
        blocked = set(broken)
        ways = [0] * (n + 1)
        ways[0] = 1
        for step in range(1, n + 1):
            if step in blocked:
                continue
            for stride in (1, 2, 3):
                if step - stride >= 0:
                    ways[step] = (ways[step] + ways[step - stride]) % MOD
        return ways[n]
