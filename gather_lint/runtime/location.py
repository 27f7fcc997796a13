"""The user's own line: the first frame outside torch and gather-lint (a cheap frame walk)."""
import os
import sys

import torch

_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep
OWN_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
SKIPPED = (_TORCH_DIR, OWN_DIR, "<frozen")  # file prefixes that are never the user's line


def user_frame_object(skipped: tuple = SKIPPED):
    """The caller's frame outside torch and gather-lint (and any other `skipped` file prefixes), or
    None (also inside torch.compile)."""
    if torch.compiler.is_compiling():
        return None  # dynamo cannot trace sys._getframe
    frame = sys._getframe(1)
    while frame is not None:
        if not frame.f_code.co_filename.startswith(skipped):
            return frame
        frame = frame.f_back
    return None


def user_frame():
    """(filename, lineno, function) of the caller outside torch and gather-lint, or None."""
    frame = user_frame_object()
    if frame is None:
        return None
    return frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name


def describe(where) -> str:
    if where is None:
        return "<inside torch.compile>" if torch.compiler.is_compiling() else "<unknown>"
    filename, lineno, function = where
    return f"{filename}:{lineno} in {function}"
