from typing import List


def kthCharacter(k: int, operations: List[int]) -> str:
    # After j operations the word has 2^j characters; the character at
    # 0-based position p = k - 1 went through operation j's "second half" iff
    # bit j of p is set, and each such type-1 operation shifts it by one.
    if any(op not in (0, 1) for op in operations) or not 1 <= k <= 1 << len(operations):
        raise ValueError('operations must be 0/1 and the word must have k characters')
    p = k - 1
    shift = 0
    j = 0
    while p >> j:
        if (p >> j) & 1 and j < len(operations) and operations[j] == 1:
            shift += 1
        j += 1
    return chr(ord('a') + shift % 26)
