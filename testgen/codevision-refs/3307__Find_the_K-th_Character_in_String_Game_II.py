from typing import List


def kthCharacter(k: int, operations: List[int]) -> str:
    # After j operations the word has 2^j characters; the character at
    # 0-based position p = k - 1 went through operation j's "second half" iff
    # bit j of p is set, and each such type-1 operation shifts it by one.
    p = k - 1
    shift = 0
    j = 0
    while p >> j:
        if (p >> j) & 1 and j < len(operations) and operations[j] == 1:
            shift += 1
        j += 1
    return chr(ord('a') + shift % 26)
