class Solution:
    def minimumPushes(self, word: str) -> int:
        # 8 keys: the first 8 letters cost 1 push, the next 8 cost 2, ...
        n = len(word)
        return sum(i // 8 + 1 for i in range(n))


def valid(word):
    """The statement's constraints: 1 <= len(word) <= 26, distinct lowercase letters."""
    return isinstance(word, str) and 1 <= len(word) <= 26 and all("a" <= c <= "z" for c in word) and len(set(word)) == len(word)
