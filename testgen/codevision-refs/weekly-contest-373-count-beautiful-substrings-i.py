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
    """The statement's constraints: 1 <= len(s) <= 1000, lowercase letters, 1 <= k <= 1000."""
    return isinstance(s, str) and 1 <= len(s) <= 1000 and all("a" <= c <= "z" for c in s) and type(k) is int and 1 <= k <= 1000
