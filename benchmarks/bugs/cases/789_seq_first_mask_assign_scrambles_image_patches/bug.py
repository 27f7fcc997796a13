import torch
import torch.nn as nn


class VisionLanguageEmbedding(nn.Module):
    """Token embeddings with the image placeholder tokens replaced by vision patch embeddings.

    Args:
        input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`):
            token ids; each image is represented by one placeholder token per patch.
        image_embeds (`torch.FloatTensor` of shape `(total_patches, hidden_size)`):
            patch embeddings of all images in the batch, sample 0 first, then sample 1, ...

    Returns:
        `torch.FloatTensor` of shape `(seq_len, batch_size, hidden_size)` (sequence-first layout).
    """

    def __init__(self, vocab_size, hidden_size, image_token_id):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size)
        self.image_token_id = image_token_id

    def forward(self, input_ids, image_embeds):
        embeddings = self.word_embeddings(input_ids).transpose(0, 1).contiguous()
        image_mask = (input_ids == self.image_token_id).transpose(0, 1)
        embeddings[image_mask] = image_embeds.to(embeddings.dtype)
        return embeddings


def make_batch(image_token_id, hidden_size):
    input_ids = torch.tensor([
        [5, 8, 9, 3, image_token_id, image_token_id, image_token_id, 2],
        [5, image_token_id, image_token_id, 7, 7, 7, 2, 0],
    ])
    patch_ids = torch.arange(5, dtype=torch.float32)
    image_embeds = patch_ids.unsqueeze(1).expand(-1, hidden_size) + 100.0
    return input_ids, image_embeds


if __name__ == "__main__":
    torch.manual_seed(0)
    image_token_id, hidden = 31, 6
    module = VisionLanguageEmbedding(32, hidden, image_token_id)
    input_ids, image_embeds = make_batch(image_token_id, hidden)
    with torch.no_grad():
        out = module(input_ids, image_embeds)
    print("sample 0 image slots got patches:", (out[4:7, 0, 0] - 100).tolist(), "expected [0, 1, 2]")
    print("sample 1 image slots got patches:", (out[1:3, 1, 0] - 100).tolist(), "expected [3, 4]")
