def count_vowels(s: str) -> int:
    vowels = "aeiou"
    count = 0
    for ch in s:
        lower = ch.lower()
        if lower in vowels:
            count += 1
    return count
