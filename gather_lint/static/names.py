"""What variable names say about index values, and jaxtyping/torchtyping dtype names."""
import ast
import re

from ..contract import Domain
from .values import TensorVal

# Variables that hold token ids, class labels or actions: their values index a vocabulary-like dim.
_CATEGORY_NAME = re.compile(
    r"(?:\w+_)?(?:input_ids|token_ids|target_ids|labels|targets|label|target|actions|action|tokens|next_tokens"
    r"|completion_ids|prompt_ids|response_ids|answer_ids|output_ids|generated_ids|chosen_ids|rejected_ids"
    r"|decoder_input_ids|class_ids|class_labels|ids|y)"
)
_NOT_CATEGORY = re.compile(
    r"(?:\w+_)?(?:position|pos|segment|token_type|attention|node|edge|batch|graph|cluster|expert|head)_\w*"
    r"|(?:num|n)_\w+"
)


# `x != pad_token_id`, `seq == self.eos_token_id`: x holds token ids (a padded batch of text)
_SPECIAL_TOKEN = re.compile(r"(?:\w+_)?(?:pad|eos|bos|sep|cls|unk|mask|padding)_(?:token_)?(?:id|idx|index)")


def learn_token_ids(interp, node, left) -> None:
    """`ids != pad_token_id` (an ast.Compare): ids, a tensor of unknown values, holds token ids."""
    if not isinstance(node.left, ast.Name) or not isinstance(node.ops[0], (ast.Eq, ast.NotEq)) or \
            not isinstance(left, TensorVal) or left.domain is not None or left.dtype in _FLOATS:
        return
    domain = token_ids_compared(node.left.id, interp.source.segment(node.comparators[0]))
    if domain is not None:
        interp.env[node.left.id] = left.with_(domain=domain)


_FLOATS = ("float16", "bfloat16", "float32", "float64")


def token_ids_compared(name: str, other_text: str):
    """The values of `name`, compared with a special token's id, are token ids of running text, which
    repeat (a token occurs twice in a row); None when other_text names no special token."""
    last = other_text.rsplit(".", 1)[-1].strip()
    if _SPECIAL_TOKEN.fullmatch(last) is None:
        return None
    return Domain(None, origin=f"token ids (`{name}`, compared with `{other_text}`)", repeats=True)


def category_domain(name: str):
    if _CATEGORY_NAME.fullmatch(name) and not _NOT_CATEGORY.fullmatch(name):
        return Domain(None, origin=f"ids/labels (`{name}`)", category=True, repeats=True)
    return None


JAXTYPING_DTYPES = {
    "Float": "float32", "Float32": "float32", "Float64": "float64", "Float16": "float16", "BFloat16": "bfloat16",
    "Int64": "int64", "Int32": "int32", "Int16": "int16", "Int8": "int8", "UInt8": "uint8", "Bool": "bool",
    "Int": None, "Integer": None, "Shaped": None, "Num": None, "Real": None, "Inexact": "float32",
    "Long": "int64", "Complex": None,
}
# Plain type hints name the class, not a checked dtype: real code annotates index tensors as
# `torch.FloatTensor` often enough that only the harmless int64 is taken from them.
TENSOR_TYPES = {"Tensor": None, "LongTensor": "int64", "FloatTensor": None, "IntTensor": None,
                "BoolTensor": None, "HalfTensor": None, "DoubleTensor": None}
