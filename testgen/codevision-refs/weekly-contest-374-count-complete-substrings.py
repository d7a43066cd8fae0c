class Solution:
    def countCompleteSubstrings(self, word: str, k: int) -> int:
        codes = [ord(c) - 97 for c in word]
        n = len(codes)
        total = 0
        start = 0
        # a complete substring lies inside a segment whose neighbours differ by <= 2
        while start < n:
            end = start + 1
            while end < n and abs(codes[end] - codes[end - 1]) <= 2:
                end += 1
            seg = codes[start:end]
            L = len(seg)
            distinct = len(set(seg))
            for u in range(1, distinct + 1):
                w = u * k  # u distinct letters, each exactly k times
                if w > L:
                    break
                cnt = [0] * 26
                good = 0  # letters with count exactly k in the window
                for i in range(w):
                    c = seg[i]
                    cnt[c] += 1
                    if cnt[c] == k:
                        good += 1
                    elif cnt[c] == k + 1:
                        good -= 1
                if good == u:
                    total += 1
                for i in range(w, L):
                    c = seg[i]
                    cnt[c] += 1
                    if cnt[c] == k:
                        good += 1
                    elif cnt[c] == k + 1:
                        good -= 1
                    c = seg[i - w]
                    cnt[c] -= 1
                    if cnt[c] == k:
                        good += 1
                    elif cnt[c] == k - 1:
                        good -= 1
                    if good == u:
                        total += 1
            start = end
        return total


def valid(word, k):
    """Inputs the statement's definitions apply to: lowercase letters (their
    alphabet positions are compared) and an integer k >= 1. Larger sizes than the
    constraints (len(word) <= 10^5, k <= len(word)) are kept: only the size differs."""
    return isinstance(word, str) and all("a" <= c <= "z" for c in word) and type(k) is int and k >= 1
