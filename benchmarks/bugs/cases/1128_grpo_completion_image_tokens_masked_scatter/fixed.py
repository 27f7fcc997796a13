import torch
import torch.nn as nn
from jaxtyping import Float, Int

IMAGE_TOKEN_ID = 5


class TinyVLM(nn.Module):
    def __init__(self, vocab: int, dim: int, patches: int):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.visual = nn.Linear(12, dim)
        self.lm_head = nn.Linear(dim, vocab)
        self.patches = patches

    def get_input_embeds(
        self,
        input_ids: Int[torch.Tensor, "batch seq"],
        pixel_values: Float[torch.Tensor, "batch patches 12"],
        prompt_len: int,
    ) -> Float[torch.Tensor, "batch seq dim"]:
        inputs_embeds = self.embed_tokens(input_ids)
        image_embeds = self.visual(pixel_values).flatten(0, 1)
        is_image = input_ids == IMAGE_TOKEN_ID
        is_image[:, prompt_len:] = False
        image_mask = is_image.unsqueeze(-1).expand_as(inputs_embeds)
        return inputs_embeds.masked_scatter(image_mask, image_embeds)

    def forward(self, input_ids, pixel_values, prompt_len):
        return self.lm_head(self.get_input_embeds(input_ids, pixel_values, prompt_len))


def per_token_logps(
    model: TinyVLM,
    prompt_completion_ids: Int[torch.Tensor, "batch seq"],
    pixel_values: Float[torch.Tensor, "batch patches 12"],
    prompt_len: int,
) -> Float[torch.Tensor, "batch completion"]:
    logits = model(prompt_completion_ids, pixel_values, prompt_len)[:, prompt_len - 1 : -1]
    targets = prompt_completion_ids[:, prompt_len:]
    return logits.log_softmax(-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)


def reference_logps(model, ids, pixel_values, prompt_len):
    b, s = ids.shape
    rows = []
    for i in range(b):
        feats = model.visual(pixel_values[i])
        k, embs = 0, []
        for t in range(s):
            if t < prompt_len and ids[i, t].item() == IMAGE_TOKEN_ID:
                embs.append(feats[k])
                k += 1
            else:
                embs.append(model.embed_tokens.weight[ids[i, t]])
        logits = model.lm_head(torch.stack(embs)).log_softmax(-1)
        rows.append(torch.stack([logits[t - 1, ids[i, t]] for t in range(prompt_len, s)]))
    return torch.stack(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyVLM(vocab=16, dim=8, patches=4)
    prompt = torch.tensor([[2, 5, 5, 5, 5, 7, 3], [2, 5, 5, 5, 5, 9, 3]])
    completion = torch.tensor([[11, 4, 5, 12, 1], [8, 8, 13, 1, 1]])
    pixel_values = torch.randn(2, 4, 12)
    ids = torch.cat([prompt, completion], dim=1)
    with torch.no_grad():
        logps = per_token_logps(model, ids, pixel_values, prompt.shape[1])
        assert torch.allclose(logps, reference_logps(model, ids, pixel_values, prompt.shape[1]), atol=1e-5)
    print("ok")
