class Solution:
    def minChanges(self, s: str) -> int:
        # A string is beautiful iff every aligned pair (s[2i], s[2i+1]) is
        # uniform; each mismatched pair costs exactly one change.
        changes = 0
        for i in range(0, len(s) - 1, 2):
            if s[i] != s[i + 1]:
                changes += 1
        return changes


def valid(s):
    """The statement's domain: a non-empty binary string of even length."""
    return len(s) >= 2 and len(s) % 2 == 0 and all(c in "01" for c in s)
