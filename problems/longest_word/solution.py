def longest_word(text: str) -> str:
    words = text.split(" ")
    best = ""
    for word in words:
        if len(word) > len(best):
            best = word
    return best
