class Solution:
    def maximumOddBinaryNumber(self, s: str) -> str:
        ones = s.count('1')
        zeros = len(s) - ones
        # all but one '1' go to the front, the last '1' makes the number odd
        return '1' * (ones - 1) + '0' * zeros + '1'


def valid(s):
    """The statement's constraints: 1 <= len(s) <= 100, only 0 and 1, at least one 1."""
    return isinstance(s, str) and 1 <= len(s) <= 100 and set(s) <= {"0", "1"} and "1" in s
