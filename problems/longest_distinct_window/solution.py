class Solution:
    def longest_distinct_window(self, log: str) -> str:
        last_seen = {}
        left = 0
        best_start, best_len = 0, 0
        for right, ch in enumerate(log):
            if ch in last_seen and last_seen[ch] >= left:
                left = last_seen[ch] + 1
            last_seen[ch] = right
            if right - left + 1 > best_len:
                best_start, best_len = left, right - left + 1
        return log[best_start:best_start + best_len]
