import torch
import torch.nn.functional as F


def one_hot(x, num_classes, dtype=torch.float32):
    """Backend one-hot that tolerates negative ids (they encode to all zeros).

    Args:
        x: integer tensor of category ids, any shape.
        num_classes: size of the encoded axis.

    Returns:
        Tensor of shape `x.shape + (num_classes,)`.
    """
    x = torch.as_tensor(x, dtype=torch.long)
    out = F.one_hot(torch.clamp(x, min=0), num_classes)
    out = torch.where((x >= 0).unsqueeze(-1), out, torch.zeros_like(out))
    return out.to(dtype)


def multi_hot(x, num_classes, dtype=torch.float32):
    """Encodes the set of category ids of one sample.

    Args:
        x: integer tensor of shape `(num_ids,)`, the categories present in the sample
            (-1 marks padding).
        num_classes: vocabulary size.

    Returns:
        Tensor of shape `(num_classes,)` with 1.0 at every category that occurs.
    """
    return torch.amax(one_hot(x, num_classes, dtype=dtype), dim=0)


class CategoryEncoding:
    def __init__(self, num_tokens, output_mode="multi_hot"):
        self.num_tokens = num_tokens
        self.output_mode = output_mode

    def __call__(self, ids):
        if self.output_mode == "one_hot":
            return one_hot(ids, self.num_tokens)
        return multi_hot(ids, self.num_tokens)


if __name__ == "__main__":
    encoder = CategoryEncoding(num_tokens=6)
    genres = torch.tensor([3, 1, 3, 4, -1])
    encoded = encoder(genres)
    ref = torch.zeros(6)
    for g in genres.tolist():
        if g >= 0:
            ref[g] = 1.0
    assert encoded.shape == (6,) and torch.equal(encoded, ref)
    print("ok")
