import torch
import torch.nn as nn

IMAGE_PAD_ID = 151655


class TinyVLM(nn.Module):
    def __init__(self, vocab=151700, hidden=16, patch_dim=12):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.visual = nn.Linear(patch_dim, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, input_ids, pixel_patches):
        # input_ids: [B, L]   pixel_patches: [num_patches, patch_dim]
        inputs_embeds = self.embed_tokens(input_ids)  # [B, L, H]
        image_embeds = self.visual(pixel_patches)  # [num_patches, H]
        image_mask = input_ids == IMAGE_PAD_ID  # [B, L]
        inputs_embeds[image_mask] = image_embeds
        return self.lm_head(inputs_embeds)  # [B, L, V]


def compute_log_probs(model, prompt_ids, response_ids, pixel_patches):
    # prompt_ids: [B, P] (with image placeholders), response_ids: [B, R] sampled by the rollout engine
    input_ids = torch.cat([prompt_ids, response_ids], dim=1)  # [B, P + R]
    logits = model(input_ids, pixel_patches)[:, prompt_ids.shape[1] - 1 : -1]  # [B, R, V]
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(-1, response_ids.unsqueeze(-1)).squeeze(-1)  # [B, R]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyVLM()
    prompt = torch.tensor([[151644, IMAGE_PAD_ID, IMAGE_PAD_ID, IMAGE_PAD_ID, IMAGE_PAD_ID, 872, 25]])
    patches = torch.randn(4, 12)  # 4 vision features for the 4 placeholders in the prompt
    # the sampler emitted the image placeholder token once in the answer
    response = torch.tensor([[785, 2168, IMAGE_PAD_ID, 374, 151645]])
    with torch.no_grad():
        print(compute_log_probs(model, prompt, response, patches))
