import torch
import torch.nn as nn

IMAGE_TOKEN_ID = 7


class ProcessorConfig:
    image_size = 64
    patch_size = 8
    scale_factor = 2  # must match the connector's pixel-shuffle factor


class Connector(nn.Module):
    def __init__(self, vision_dim, text_dim, scale_factor=2):
        super().__init__()
        self.scale_factor = scale_factor
        self.proj = nn.Linear(vision_dim * scale_factor ** 2, text_dim)

    def forward(self, patches):
        """Pixel-shuffle patch features and project them to the text width.

        Args:
            patches: (num_images, seq, vision_dim) with seq a square number.

        Returns:
            (num_images, seq // scale_factor**2, text_dim)
        """
        n, seq, d = patches.shape
        s = self.scale_factor
        side = int(seq ** 0.5)
        x = patches.view(n, side // s, s, side // s, s, d).permute(0, 1, 3, 2, 4, 5)
        return self.proj(x.reshape(n, seq // s ** 2, s * s * d))


def build_prompt(num_text_tokens, cfg):
    image_seq_len = (cfg.image_size // cfg.patch_size) ** 2 // cfg.scale_factor ** 2
    return [1] + [IMAGE_TOKEN_ID] * image_seq_len + list(range(10, 10 + num_text_tokens))


def inputs_merger(input_ids, inputs_embeds, image_hidden_states):
    """Write image features into the image-token slots of the text embeddings.

    Args:
        input_ids: (batch, seq_len) token ids, IMAGE_TOKEN_ID marks image slots.
        inputs_embeds: (batch, seq_len, text_dim) text embeddings.
        image_hidden_states: (num_images, image_seq_len, text_dim) connector output.

    Returns:
        (batch, seq_len, text_dim) merged embeddings.
    """
    mask = input_ids == IMAGE_TOKEN_ID
    merged = inputs_embeds.clone()
    merged[mask] = image_hidden_states.reshape(-1, inputs_embeds.size(-1))
    return merged


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = ProcessorConfig()
    input_ids = torch.tensor([build_prompt(5, cfg), build_prompt(5, cfg)])
    embed = nn.Embedding(32, 48)
    connector = Connector(vision_dim=24, text_dim=48)
    patches = torch.randn(2, (cfg.image_size // cfg.patch_size) ** 2, 24)
    with torch.no_grad():
        merged = inputs_merger(input_ids, embed(input_ids), connector(patches))
        feats = connector(patches)
        base = embed(input_ids)
    for b in range(input_ids.shape[0]):
        k = 0
        for t in range(input_ids.shape[1]):
            if input_ids[b, t].item() == IMAGE_TOKEN_ID:
                assert torch.equal(merged[b, t], feats[b, k])
                k += 1
            else:
                assert torch.equal(merged[b, t], base[b, t])
        assert k == feats.shape[1]
    print("ok")
