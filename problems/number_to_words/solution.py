ONES = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
        "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def number_to_words(n: int) -> str:
    def below_thousand(k):
        words = []
        if k >= 100:
            words.append(ONES[k // 100] + " hundred")
            k = k % 100
        if k >= 20:
            if k % 10 == 0:
                words.append(TENS[k // 10])
            else:
                words.append(TENS[k // 10] + "-" + ONES[k % 10])
        elif k > 0:
            words.append(ONES[k])
        return " ".join(words)

    if n == 0:
        return "zero"
    parts = []
    if n >= 1000:
        parts.append(below_thousand(n // 1000) + " thousand")
        n = n % 1000
    if n > 0:
        parts.append(below_thousand(n))
    return " ".join(parts)
