import torch
import torch.nn.functional as F
from jaxtyping import Bool, Int
from torch import Tensor


def pack_examples(examples: list[list[list[int]]], max_len: int, pad_id: int = 0):
    """Greedy packing collator: each row holds several documents, the tail is padding (sequence_id -1)."""
    input_ids, sequence_id = [], []
    for docs in examples:
        ids, sid = [], []
        for k, doc in enumerate(docs):
            ids += doc
            sid += [k] * len(doc)
        ids += [pad_id] * (max_len - len(ids))
        sid += [-1] * (max_len - len(sid))
        input_ids.append(ids)
        sequence_id.append(sid)
    input_ids = torch.tensor(input_ids)
    sequence_id = torch.tensor(sequence_id)
    return {"input_ids": input_ids, "sequence_id": sequence_id, "attention_mask": sequence_id != -1}


def gen_attention_mask_in_length(
    sequence_id: Int[Tensor, "batch seq"],
    S: int,
    attention_mask: Bool[Tensor, "batch seq"] | None,
) -> Int[Tensor, "batch seq"]:
    """Per-row lengths of the packed documents, left-aligned and zero-padded to S (varlen attention input)."""
    if S != sequence_id.shape[-1]:
        raise ValueError(f"Sequence length ({S}) does not match sequence_id ({sequence_id.shape[-1]}).")
    mask_in_length = F.one_hot(sequence_id)
    if attention_mask is not None:
        mask_in_length = mask_in_length.masked_fill(~attention_mask.unsqueeze(-1), 0)
    mask_in_length = mask_in_length.sum(dim=1)
    return F.pad(mask_in_length, (0, S - mask_in_length.shape[-1]), value=0)


if __name__ == "__main__":
    batch = pack_examples(
        [
            [[5, 6, 7], [8, 9], [10, 11, 12, 13]],
            [[20, 21, 22, 23, 24], [25]],
        ],
        max_len=12,
    )
    lengths = gen_attention_mask_in_length(batch["sequence_id"], 12, batch["attention_mask"])
    print(lengths)
