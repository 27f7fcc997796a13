"""What variable names say about index values, and jaxtyping/torchtyping dtype names."""
import ast
import functools
import re

from ..contract import Domain
from ..dims import Sym
from .values import TensorVal

# Variables that say which sample or graph each row of a flat batch belongs to (a point cloud's or a graph
# batch's `batch` vector): many rows share a value, so the value tells groups apart, not rows within one
_GROUP_ID_NAME = re.compile(r"(?:\w+_)?(?:batch|batch_idx|batch_index|batch_ids|batch_indices|batch_vec|sample_idx"
                            r"|sample_ids|graph_ids|graph_idx|segment_ids)")


def is_group_ids(name: str) -> bool:
    return _GROUP_ID_NAME.fullmatch(name) is not None


# Variables that hold token ids, class labels or actions: their values index a vocabulary-like dim.
_CATEGORY_NAME = re.compile(
    r"(?:\w+_)?(?:input_ids|token_ids|target_ids|labels|targets|label|target|actions|action|acts|tokens|next_tokens"
    r"|completion_ids|prompt_ids|response_ids|answer_ids|output_ids|generated_ids|chosen_ids|rejected_ids"
    r"|decoder_input_ids|class_ids|class_labels|ids|y"
    r"|target_idx|target_indices|label_idx|label_indices|class_idx|class_indices|action_idx|action_indices)"
)
_NOT_CATEGORY = re.compile(
    r"(?:\w+_)?(?:position|pos|segment|token_type|attention|node|edge|graph|cluster|expert|head)_\w*"
    r"|(?:\w+_)?batch_(?!(?:labels?|targets?|actions?|acts)$)\w*"  # batch_idx is a graph's; batch_labels are labels
    r"|(?:num|n)_\w+"
    # coordinates on a grid and orderings: `h_ids * w + w_ids` ravels unique positions, `perm_ids` permutes
    r"|(?:h|w|x|y|z|row|col|height|width|flat|grid|coord|spatial|patch|pixel|perm|sorted|order|keep|uniq|unique)_\w+"
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


def remember_token_ids(interp, node) -> None:
    """`ids != pad_token_id` with ids of unknown kind (an int, a list or a tensor): remembered by name,
    for a use that shows a tensor of several ids per row (`x[rows, ids]` with rows an arange broadcast
    over them) to take as token ids. Not bound in env: an int token compared with eos is one position."""
    if isinstance(node.left, ast.Name) and isinstance(node.ops[0], (ast.Eq, ast.NotEq)) and \
            interp.env.get(node.left.id) is None:
        domain = token_ids_compared(node.left.id, interp.source.segment(node.comparators[0]))
        if domain is not None:
            interp.__dict__.setdefault("_compared_token_ids", {})[node.left.id] = domain


def compared_token_ids(interp, node):
    """The domain remember_token_ids learnt for a name, or None."""
    if not isinstance(node, ast.Name) or interp.env.get(node.id) is not None:
        return None
    return interp.__dict__.get("_compared_token_ids", {}).get(node.id)


def token_ids_compared(name: str, other_text: str):
    """The values of `name`, compared with a special token's id, are token ids of running text, which
    repeat (a token occurs twice in a row); None when other_text names no special token."""
    last = other_text.rsplit(".", 1)[-1].strip()
    if _SPECIAL_TOKEN.fullmatch(last) is None:
        return None
    return Domain(None, origin=f"token ids (`{name}`, compared with `{other_text}`)", repeats=True)


@functools.lru_cache(maxsize=4096)
def category_domain(name: str):
    """The values a variable's name says it holds (ids, labels, an edge list), or None. Cached: asked of
    every name the analysis reads, and the Domain is frozen."""
    if _CATEGORY_NAME.fullmatch(name) and not _NOT_CATEGORY.fullmatch(name):
        # top-k ids are ids of a vocabulary, but distinct within their row: a write along it meets no repeat
        top = "topk" in name or "top_k" in name
        return Domain(None, origin=f"{'top-k ids' if top else 'ids/labels'} (`{name}`)", category=True, repeats=not top)
    if "edge_ind" in name:
        return edge_list_domain(name)
    return face_list_domain(name) if _FACE_LIST_NAME.fullmatch(name) else None


EDGE_LIST_ORIGIN = "node ids of the edge list `"  # how edge_list_domain's values begin
# The graph libraries' name for a [2, num_edges] list of (source, target) node ids
_EDGE_LIST_NAME = re.compile(r"(?:\w+_)?edge_ind(?:ex|ices|exes)")


def edge_list_domain(name: str):
    """`edge_index` holds the node ids at both ends of every edge: a node with several edges
    appears several times (its degree), in either row. Not a category: its size is the node count."""
    if _EDGE_LIST_NAME.fullmatch(name):
        return Domain(None, origin=f"{EDGE_LIST_ORIGIN}{name}` (a node with several edges appears "
                                   f"once per edge)", repeats=True)
    return None


# A mesh's [F, 3] (or [F, 4]) list of vertex ids per face: a vertex shared by k faces appears k times
_FACE_LIST_NAME = re.compile(r"(?:\w+_)?(?:faces|face_ids|face_indices|face_vertex_ids|tris|triangles|tets|tetras|simplices)")


def face_list_domain(name: str):
    """`faces` holds the vertex ids of every face: a vertex shared by several faces appears once per face
    (six times on average in a closed triangle mesh). Not a category: its size is the vertex count."""
    return Domain(None, origin=f"vertex ids of the face list `{name}` (a vertex shared by several faces "
                               f"appears once per face)", repeats=True)


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


BATCH_NAMES = {"b", "bs", "bsz", "batch", "batch_size", "batchsize", "n_batch", "nbatch", "num_batch"}


def is_batch(dim) -> bool:
    """A size named as the batch's (`B`, `bsz`, `batch_size`, also with a prefix: `my_B`, `eval_bsz`)."""
    if not isinstance(dim, Sym):
        return False
    name = dim.name.lower()
    return name in BATCH_NAMES or "_" in name and name.rsplit("_", 1)[1] in _BATCH_ENDS


_BATCH_ENDS = {"b", "bs", "bsz", "batch"}  # the last part of a prefixed batch name (`n_batch`: of BATCH_NAMES)
