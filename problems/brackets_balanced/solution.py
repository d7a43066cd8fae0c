class Solution:
    def brackets_balanced(self, text: str) -> bool:
        opener_of = {")": "(", "]": "[", "}": "{"}
        open_stack = []
        for ch in text:
            if ch in "([{":
                open_stack.append(ch)
            elif ch in opener_of:
                if not open_stack or open_stack.pop() != opener_of[ch]:
                    return False
        return not open_stack
