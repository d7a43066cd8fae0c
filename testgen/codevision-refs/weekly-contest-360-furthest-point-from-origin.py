class Solution:
    def furthestDistanceFromOrigin(self, moves: str) -> int:
        # Every '_' goes in the direction of the larger fixed displacement.
        left = moves.count('L')
        right = moves.count('R')
        free = moves.count('_')
        return abs(left - right) + free

