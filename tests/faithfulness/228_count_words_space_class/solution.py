def count_words(sentence):
    count = 0
    in_word = False
    for ch in sentence:
        if ch == " ":
            in_word = False
        elif not in_word:
            in_word = True
            count += 1
    return count
