class Solution:
    def canMakeSubsequence(self, str1: str, str2: str) -> bool:
        # Greedy matching: each character of str1 may stay or advance by one
        # (cyclically); take the earliest usable one for each char of str2.
        j = 0
        m = len(str2)
        for c in str1:
            if j == m:
                break
            t = str2[j]
            nxt = chr((ord(c) - ord('a') + 1) % 26 + ord('a'))
            if c == t or nxt == t:
                j += 1
        return j == m

