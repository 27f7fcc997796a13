from dataclasses import dataclass, field

import torch
from torch import nn

IMAGE_TOKEN_ID = 9


@dataclass
class Request:
    prompt_ids: list
    output_ids: list = field(default_factory=list)
    placeholder_offset: int = 0
    placeholder_length: int = 0


def merge_multimodal_embeddings(input_ids, inputs_embeds, mm_embeds, request):
    """Writes the vision-encoder outputs into the placeholder rows of the text embeddings.

    Args:
        input_ids (`torch.LongTensor` of shape `(seq_len,)`): prompt and already generated tokens.
        inputs_embeds (`torch.FloatTensor` of shape `(seq_len, hidden_size)`): token embeddings.
        mm_embeds (`torch.FloatTensor` of shape `(num_image_tokens, hidden_size)`): image features.
        request (`Request`): the scheduled request (prompt placeholder range).

    Returns:
        `torch.FloatTensor` of shape `(seq_len, hidden_size)`.
    """
    start = request.placeholder_offset
    positions = torch.arange(start, start + request.placeholder_length)
    index = positions.unsqueeze(-1).expand(-1, inputs_embeds.shape[-1])
    return inputs_embeds.scatter(0, index, mm_embeds)


class TinyVLM(nn.Module):
    def __init__(self, vocab_size=32, hidden_size=8, patch_dim=12):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.projector = nn.Linear(patch_dim, hidden_size)

    def embed(self, request, patches):
        input_ids = torch.tensor(request.prompt_ids + request.output_ids)
        inputs_embeds = self.embed_tokens(input_ids)
        return merge_multimodal_embeddings(input_ids, inputs_embeds, self.projector(patches), request)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyVLM()
    prompt = [1, 5, 9, 9, 9, 9, 7, 3]
    req = Request(prompt_ids=prompt, placeholder_offset=2, placeholder_length=4)
    req.output_ids = [11, 9, 4]  # tokens decoded so far
    patches = torch.randn(4, 12)
    with torch.no_grad():
        embeds = model.embed(req, patches)
        image_feats = model.projector(patches)
        ids = req.prompt_ids + req.output_ids
        for pos, tok in enumerate(ids):
            if 2 <= pos < 6:
                expected = image_feats[pos - 2]
            else:
                expected = model.embed_tokens.weight[tok]
            assert torch.equal(embeds[pos], expected), pos
    print("ok")
