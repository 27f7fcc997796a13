import torch
from jaxtyping import Float, Int
from torch import nn

IMG, IMG_BREAK, IMG_END = 10, 11, 12


def image_prompt_tokens(rows: int, cols: int) -> list[int]:
    tokens = []
    for r in range(rows):
        tokens += [IMG] * cols
        tokens.append(IMG_END if r == rows - 1 else IMG_BREAK)
    return tokens


class PixtralStyleEmbedder(nn.Module):
    def __init__(self, vocab_size: int = 32, hidden: int = 8, patch_dim: int = 6):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, hidden)
        self.vision = nn.Linear(patch_dim, hidden)

    def forward(
        self,
        input_ids: Int[torch.Tensor, "seq"],
        patches: Float[torch.Tensor, "num_patches patch_dim"],
        offset: int,
        length: int,
    ) -> Float[torch.Tensor, "seq hidden"]:
        embeds: Float[torch.Tensor, "seq hidden"] = self.tok(input_ids)
        image_embeds: Float[torch.Tensor, "num_patches hidden"] = self.vision(patches)
        positions: Int[torch.Tensor, "length"] = torch.arange(offset, offset + length)
        return embeds.index_copy(0, positions, image_embeds)


if __name__ == "__main__":
    torch.manual_seed(0)
    rows, cols = 3, 4
    image_tokens = image_prompt_tokens(rows, cols)
    prompt = [1, 4] + image_tokens + [7, 2]
    offset, length = 2, len(image_tokens)  # placeholder range recorded by the processor
    model = PixtralStyleEmbedder()
    with torch.no_grad():
        out = model(torch.tensor(prompt), torch.randn(rows * cols, 6), offset, length)
    print(out.shape)
