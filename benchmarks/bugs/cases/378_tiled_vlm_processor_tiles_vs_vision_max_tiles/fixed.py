from dataclasses import dataclass

import torch
import torch.nn as nn

TILE, TOKENS_PER_TILE, IMAGE_TOKEN = 448, 16, 3


@dataclass
class ProcessorConfig:
    max_tiles: int = 6


@dataclass
class VisionConfig:
    max_tiles: int = 1  # lowered to fit the serving context length
    pixel_dim: int = 24
    hidden_size: int = 32


def count_tiles(height, width, max_tiles):
    """Number of tiles an image is split into, plus one thumbnail when it is split at all."""
    cols = min(max_tiles, max(1, round(width / TILE)))
    rows = min(max_tiles // cols, max(1, round(height / TILE)))
    return rows * cols + (1 if rows * cols > 1 else 0)


class TileEncoder(nn.Module):
    def __init__(self, cfg: VisionConfig):
        super().__init__()
        self.cfg = cfg
        self.proj = nn.Linear(cfg.pixel_dim, cfg.hidden_size)

    def forward(self, images, height, width):
        n_tiles = count_tiles(height, width, self.cfg.max_tiles)
        tiles = images[:, : n_tiles * TOKENS_PER_TILE]
        return self.proj(tiles)


def scatter_image_features(inputs_embeds, image_positions, image_features):
    """Write the vision features into the placeholder slots of the prompt.

    Args:
        inputs_embeds (`torch.FloatTensor` of shape `(batch_size, sequence_length, hidden_size)`):
            Token embeddings of the prompt, placeholders included.
        image_positions (`torch.LongTensor` of shape `(batch_size, num_placeholders)`):
            Sequence positions of the image placeholder tokens.
        image_features (`torch.FloatTensor` of shape `(batch_size, num_image_tokens, hidden_size)`):
            Output of the vision encoder, one row per image token.

    Returns:
        `torch.FloatTensor` of shape `(batch_size, sequence_length, hidden_size)`.
    """
    index = image_positions.unsqueeze(-1).expand(-1, -1, inputs_embeds.shape[-1])
    return inputs_embeds.scatter(1, index, image_features)


if __name__ == "__main__":
    torch.manual_seed(0)
    vis_cfg = VisionConfig()
    proc_cfg = ProcessorConfig(max_tiles=vis_cfg.max_tiles)
    height, width = 900, 1300
    n_placeholders = count_tiles(height, width, proc_cfg.max_tiles) * TOKENS_PER_TILE
    prompt = [1, 8, 9] + [IMAGE_TOKEN] * n_placeholders + [10, 11, 2]
    input_ids = torch.tensor([prompt, prompt])
    embed = nn.Embedding(16, vis_cfg.hidden_size)
    encoder = TileEncoder(vis_cfg)
    images = torch.randn(2, 7 * TOKENS_PER_TILE, vis_cfg.pixel_dim)
    with torch.no_grad():
        feats = encoder(images, height, width)
        positions = torch.stack([(row == IMAGE_TOKEN).nonzero().squeeze(-1) for row in input_ids])
        text = embed(input_ids)
        merged = scatter_image_features(text, positions, feats)

    for b in range(2):
        k = 0
        for pos, tok in enumerate(input_ids[b].tolist()):
            if tok == IMAGE_TOKEN:
                assert torch.equal(merged[b, pos], feats[b, k])
                k += 1
            else:
                assert torch.equal(merged[b, pos], text[b, pos])
        assert k == feats.shape[1]
    print("ok")
