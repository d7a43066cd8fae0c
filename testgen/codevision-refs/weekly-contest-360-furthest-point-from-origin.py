class Solution:
    def furthestDistanceFromOrigin(self, moves: str) -> int:
        # Every '_' goes in the direction of the larger fixed displacement.
        left = moves.count('L')
        right = moves.count('R')
        free = moves.count('_')
        return abs(left - right) + free


def valid(moves):
    """The statement's domain: a non-empty string of 'L', 'R' and '_'."""
    return len(moves) >= 1 and all(c in "LR_" for c in moves)
