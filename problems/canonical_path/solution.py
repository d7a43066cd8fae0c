def canonical_path(current: str, route: str) -> str:
    if route.startswith("/"):
        stack = []
    else:
        stack = [part for part in current.split("/") if part]
    for part in route.split("/"):
        if part == "" or part == ".":
            continue
        if part == "..":
            if stack:
                stack.pop()
        else:
            stack.append(part)
    return "/" + "/".join(stack)
