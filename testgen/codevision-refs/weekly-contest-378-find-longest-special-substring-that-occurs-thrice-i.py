from itertools import groupby


class Solution:
    def maximumLength(self, s: str) -> int:
        runs = {}
        for ch, grp in groupby(s):
            runs.setdefault(ch, []).append(sum(1 for _ in grp))
        best = -1
        for lens in runs.values():
            top = sorted(lens, reverse=True)[:3]
            top += [0] * (3 - len(top))
            a, b, c = top
            # length L occurs thrice: inside the longest run (a - 2), in the two
            # longest runs (min(a - 1, b)), or once in each of the three longest (c)
            cand = max(a - 2, min(a - 1, b), c)
            if cand > best:
                best = cand
        return best if best > 0 else -1
