class Solution:
    def minimumPushes(self, word: str) -> int:
        # 8 keys: the first 8 letters cost 1 push, the next 8 cost 2, ...
        n = len(word)
        return sum(i // 8 + 1 for i in range(n))
