class Solution:
    def beautifulSubstrings(self, s: str, k: int) -> int:
        vowels = set('aeiou')
        n = len(s)
        pre = [0] * (n + 1)
        for i, ch in enumerate(s):
            pre[i + 1] = pre[i] + (ch in vowels)
        count = 0
        for i in range(n):
            for j in range(i + 2, n + 1, 2):
                v = pre[j] - pre[i]
                c = (j - i) - v
                if v == c and (v * c) % k == 0:
                    count += 1
        return count


def valid(s, k):
    """Inputs the statement's definitions apply to: a string of lowercase letters
    (vowels are defined on them) and an integer k >= 1. Longer strings and larger
    k than the constraints (len(s), k <= 1000) are kept: only the size differs."""
    return isinstance(s, str) and all("a" <= c <= "z" for c in s) and type(k) is int and k >= 1
