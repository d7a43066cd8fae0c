from collections import deque


class Solution:
    def finalString(self, s: str) -> str:
        # Keep the text in a deque with a "reversed" flag: a reversal just
        # flips the flag, and a new character goes to the logical end.
        text = deque()
        flipped = False
        for ch in s:
            if ch == 'i':
                flipped = not flipped
            elif flipped:
                text.appendleft(ch)
            else:
                text.append(ch)
        out = ''.join(text)
        return out[::-1] if flipped else out

