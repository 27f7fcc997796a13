from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class MultimodalItem:
    precomputed_embedding: torch.Tensor  # supplied by the client request


def adjust_embedding_length(embedding, num_placeholders):
    """Trim or pad the item embedding so it has one row per placeholder token."""
    if embedding.shape[0] > num_placeholders:
        return embedding[:num_placeholders]
    if embedding.shape[0] < num_placeholders:
        pad = embedding[-1:].expand(num_placeholders - embedding.shape[0], -1)
        return torch.cat([embedding, pad], dim=0)
    return embedding


def embed_mm_inputs(input_ids, embed_tokens, items, image_token_id):
    """Replace image placeholder embeddings by the items' precomputed features.

    Args:
        input_ids: (seq_len,) token ids with `image_token_id` placeholders.
        embed_tokens: text embedding table of hidden size H.
        items: multimodal items whose `precomputed_embedding` is (num_patches, H).

    Returns:
        (seq_len, H) input embeddings.
    """
    dest = embed_tokens(input_ids)
    mask = (input_ids == image_token_id).unsqueeze(-1)
    src = torch.cat([it.precomputed_embedding for it in items], dim=0)
    src = adjust_embedding_length(src, int(mask.sum()))
    dest.masked_scatter_(mask.expand_as(dest), src)
    return dest


if __name__ == "__main__":
    torch.manual_seed(0)
    hidden_size, image_token_id = 32, 99
    embed_tokens = nn.Embedding(100, hidden_size)
    input_ids = torch.tensor([1, 5, 99, 99, 99, 99, 7, 2])
    # features produced offline by a projector of another model variant (hidden 24)
    request_items = [MultimodalItem(precomputed_embedding=torch.randn(4, 24))]
    with torch.no_grad():
        out = embed_mm_inputs(input_ids, embed_tokens, request_items, image_token_id)
    print(out.shape)
