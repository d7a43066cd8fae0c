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
