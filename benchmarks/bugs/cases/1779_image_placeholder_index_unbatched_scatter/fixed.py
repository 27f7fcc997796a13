import torch
import torch.nn as nn


def compute_image_placeholder_indices(token_ids, image_token_id):
    return (token_ids == image_token_id).nonzero()[:, 1]


class Mistral3Backbone(nn.Module):
    def __init__(self, vocab_size, hidden_dim, patch_dim, image_token_id):
        super().__init__()
        self.image_token_id = image_token_id
        self.token_embedding = nn.Embedding(vocab_size, hidden_dim)
        self.vision_projector = nn.Sequential(nn.Linear(patch_dim, hidden_dim), nn.GELU(), nn.Linear(hidden_dim, hidden_dim))

    def merge_image_embeddings(self, token_ids, patches):
        embeds = self.token_embedding(token_ids)
        image_embeds = self.vision_projector(patches)
        placeholder_indices = compute_image_placeholder_indices(token_ids, self.image_token_id).view(token_ids.shape[0], -1)
        index = placeholder_indices.unsqueeze(-1).expand(-1, -1, embeds.shape[-1])
        return embeds.scatter(1, index, image_embeds.reshape(index.shape))


if __name__ == "__main__":
    torch.manual_seed(0)
    img = 7
    backbone = Mistral3Backbone(vocab_size=100, hidden_dim=16, patch_dim=12, image_token_id=img)
    token_ids = torch.tensor([
        [1, 30, img, img, img, 31, 32, 33, 2, 0],
        [1, 40, 41, 42, 43, img, img, img, 44, 2],
    ])
    patches = torch.randn(2, 3, 12)

    merged = backbone.merge_image_embeddings(token_ids, patches)

    ref = backbone.token_embedding(token_ids).clone()
    image_embeds = backbone.vision_projector(patches)
    for b in range(token_ids.shape[0]):
        p = 0
        for t in range(token_ids.shape[1]):
            if token_ids[b, t] == img:
                ref[b, t] = image_embeds[b, p]
                p += 1
    assert torch.allclose(merged, ref, atol=1e-6), (merged - ref).abs().max()
    print("ok")
