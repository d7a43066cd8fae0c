from typing import List


def addOperators(num: str, target: int) -> List[str]:
    # Depth-first over the split points.  Order of the result (the original
    # tests compare lists as they are): at each position the longer operand is
    # tried first, and for each operand the operators in the order '+', '-', '*'.
    res = []
    n = len(num)

    def dfs(pos, expr, value, last):
        if pos == n:
            if value == target:
                res.append(expr)
            return
        if num[pos] == '0':
            ends = [pos + 1]  # no operand with a leading zero
        else:
            ends = range(n, pos, -1)
        for end in ends:
            s = num[pos:end]
            v = int(s)
            if pos == 0:
                dfs(end, s, v, v)
            else:
                dfs(end, expr + '+' + s, value + v, v)
                dfs(end, expr + '-' + s, value - v, -v)
                dfs(end, expr + '*' + s, value - last + last * v, last * v)

    if n:
        dfs(0, '', 0, 0)
    return res
