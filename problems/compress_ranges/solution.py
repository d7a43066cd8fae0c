from typing import List


def compress_ranges(pages: List[int]) -> str:
    pieces = []
    i = 0
    while i < len(pages):
        j = i
        while j + 1 < len(pages) and pages[j + 1] == pages[j] + 1:
            j += 1
        if j > i:
            pieces.append(str(pages[i]) + "-" + str(pages[j]))
        else:
            pieces.append(str(pages[i]))
        i = j + 1
    return ",".join(pieces)
