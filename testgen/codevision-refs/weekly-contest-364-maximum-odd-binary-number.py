class Solution:
    def maximumOddBinaryNumber(self, s: str) -> str:
        ones = s.count('1')
        zeros = len(s) - ones
        # all but one '1' go to the front, the last '1' makes the number odd
        return '1' * (ones - 1) + '0' * zeros + '1'
