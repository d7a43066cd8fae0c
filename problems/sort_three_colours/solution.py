from typing import List


class Solution:
    def sort_three_colours(self, tiles: List[int]) -> List[int]:
        tiles = list(tiles)
        low, mid, high = 0, 0, len(tiles) - 1
        while mid <= high:
            if tiles[mid] == 0:
                tiles[low], tiles[mid] = tiles[mid], tiles[low]
                low += 1
                mid += 1
            elif tiles[mid] == 1:
                mid += 1
            else:
                tiles[mid], tiles[high] = tiles[high], tiles[mid]
                high -= 1
        return tiles
