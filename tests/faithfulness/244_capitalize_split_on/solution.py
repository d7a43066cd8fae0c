def capitalize_words(sentence):
    words = sentence.split(' ')
    out = []
    for w in words:
        out.append(w[:1].upper() + w[1:])
    return ' '.join(out)
