def longest_word(text: str) -> str:
    words = text.split(" ")
    best = ""
    best_len = 0
    for word in words:
        if len(word) > best_len:
            best = word
            best_len = len(word)
    return best
