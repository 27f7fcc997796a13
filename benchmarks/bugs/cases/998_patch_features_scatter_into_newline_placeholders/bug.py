import torch
import torch.nn as nn

IMAGE_TOKEN = 7
IMG_BREAK = 8


def expand_image_prompt(prompt_ids, rows, cols):
    """Replace the single <image> token by a rows x (cols + 1) grid: cols patch slots + one break per row."""
    out = []
    for tok in prompt_ids:
        if tok == IMAGE_TOKEN:
            for _ in range(rows):
                out.extend([IMAGE_TOKEN] * cols + [IMG_BREAK])
        else:
            out.append(tok)
    return torch.tensor(out)


class VisionTower(nn.Module):
    def __init__(self, patch_dim, hidden):
        super().__init__()
        self.proj = nn.Linear(patch_dim, hidden)

    def forward(self, patches):
        # patches: [rows * cols, patch_dim] -> [rows * cols, hidden]
        return self.proj(patches)


def merge_multimodal(input_ids, text_embeds, image_feats):
    # input_ids: [T], text_embeds: [T, H], image_feats: [P, H]
    placeholder = (input_ids == IMAGE_TOKEN) | (input_ids == IMG_BREAK)   # [T]
    pos = placeholder.nonzero().squeeze(-1)                              # [n_placeholders]
    index = pos.unsqueeze(-1).expand(-1, text_embeds.shape[-1])          # [n_placeholders, H]
    return text_embeds.scatter(0, index, image_feats)


if __name__ == "__main__":
    torch.manual_seed(0)
    rows, cols, hidden, patch_dim = 3, 4, 8, 12
    ids = expand_image_prompt([1, 5, IMAGE_TOKEN, 9, 2], rows, cols)
    embed = nn.Embedding(16, hidden)
    tower = VisionTower(patch_dim, hidden)
    with torch.no_grad():
        feats = tower(torch.randn(rows * cols, patch_dim))
        merged = merge_multimodal(ids, embed(ids), feats)
    print("merged", tuple(merged.shape), merged[2])
