class Solution:
    def countCompleteSubstrings(self, word: str, k: int) -> int:
        # positions in the alphabet are compared through character codes
        codes = [ord(c) - 97 for c in word]
        base = min(codes) if codes else 0
        codes = [c - base for c in codes]
        size = (max(codes) + 1) if codes else 1
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
                cnt = [0] * size
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
