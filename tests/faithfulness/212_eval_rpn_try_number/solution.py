def eval_rpn(tokens):
    stack = []
    for tok in tokens:
        try:
            stack.append(int(tok))
            continue
        except ValueError:
            pass
        b = stack.pop()
        a = stack.pop()
        if tok == "+":
            stack.append(a + b)
        elif tok == "-":
            stack.append(a - b)
        elif tok == "*":
            stack.append(a * b)
        else:
            stack.append(int(a / b))
    return stack[0]
