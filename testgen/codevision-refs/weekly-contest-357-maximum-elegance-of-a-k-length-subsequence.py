from typing import List


class Solution:
    def findMaximumElegance(self, items: List[List[int]], k: int) -> int:
        # Start from the k most profitable items; then, for each further item
        # (by decreasing profit) of a category not yet chosen, swap out the
        # least profitable item whose category is duplicated in the choice.
        order = sorted(items, key=lambda it: -it[0])
        seen = set()
        duplicates = []  # profits of chosen items in an already-seen category
        profit = 0
        for p, c in order[:k]:
            profit += p
            if c in seen:
                duplicates.append(p)
            else:
                seen.add(c)
        best = profit + len(seen) ** 2
        for p, c in order[k:]:
            if c in seen or not duplicates:
                continue
            profit += p - duplicates.pop()
            seen.add(c)
            best = max(best, profit + len(seen) ** 2)
        return best



def valid(items, k):
    """A subsequence of size k exists: 1 <= k <= len(items), items are pairs.
    (The statement's profits are positive and categories 1..n; the answer is
    well defined without that.)"""
    return 1 <= k <= len(items) and all(len(it) == 2 for it in items)
