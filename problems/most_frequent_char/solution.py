def most_frequent_char(s: str) -> str:
    counts = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    best = ""
    best_count = 0
    for first in s:
        if counts[first] > best_count:
            best = first
            best_count = counts[first]
    return best
