from typing import List


class Solution:
    def free_slots(self, bookings: List[List[int]], open_at: int, close_at: int) -> List[List[int]]:
        gaps = []
        cursor = open_at
        for start, length in sorted(bookings):
            end = start + length
            if start >= close_at:
                break
            if start > cursor:
                gaps.append([cursor, start])
            if end > cursor:
                cursor = end
        if cursor < close_at:
            gaps.append([cursor, close_at])
        return gaps
