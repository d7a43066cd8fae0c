class Solution:
    def first_unique_index(self, signal: str) -> int:
        counts = {}
        for ch in signal:
            counts[ch] = counts.get(ch, 0) + 1
        for i, ch in enumerate(signal):
            if counts[ch] == 1:
                return i
        return -1
