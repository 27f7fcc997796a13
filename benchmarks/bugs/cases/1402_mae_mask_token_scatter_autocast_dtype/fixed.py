import torch
import torch.nn as nn
import torch.nn.functional as F


def repeat_token(token, size):
    batch_size, sequence_length = size
    return token.repeat(batch_size, sequence_length, 1)


def expand_index_like(index, tokens):
    return index.unsqueeze(-1).expand(-1, -1, tokens.shape[-1])


def get_at_index(tokens, index):
    return torch.gather(tokens, 1, expand_index_like(index, tokens))


def set_at_index(tokens, index, value):
    index = expand_index_like(index, tokens)
    return torch.scatter(tokens, 1, index, value)


def random_token_mask(batch_size, sequence_length, mask_ratio, generator):
    # position 0 is the class token and is always kept
    num_keep = int((sequence_length - 1) * (1 - mask_ratio))
    order = torch.rand(batch_size, sequence_length - 1, generator=generator).argsort(dim=1) + 1
    cls = torch.zeros(batch_size, 1, dtype=torch.long)
    idx_keep = torch.cat([cls, order[:, :num_keep]], dim=1)
    idx_mask = order[:, num_keep:]
    return idx_keep, idx_mask


class MAEDecoder(nn.Module):
    def __init__(self, in_dim, embed_dim, out_dim):
        super().__init__()
        self.embed = nn.Linear(in_dim, embed_dim)
        self.blocks = nn.Sequential(nn.LayerNorm(embed_dim), nn.Linear(embed_dim, embed_dim), nn.GELU())
        self.prediction_head = nn.Linear(embed_dim, out_dim)

    def decode(self, x):
        return x + self.blocks(x)

    def predict(self, x):
        return self.prediction_head(x)


class MAE(nn.Module):
    def __init__(self, sequence_length, patch_dim, encoder_dim, decoder_dim, mask_ratio=0.75):
        super().__init__()
        self.sequence_length = sequence_length
        self.mask_ratio = mask_ratio
        self.mask_token = nn.Parameter(torch.zeros(1, 1, decoder_dim))
        nn.init.normal_(self.mask_token, std=0.02)
        self.patch_embed = nn.Linear(patch_dim, encoder_dim)
        self.encoder = nn.Sequential(nn.LayerNorm(encoder_dim), nn.Linear(encoder_dim, encoder_dim), nn.GELU())
        self.decoder = MAEDecoder(encoder_dim, decoder_dim, patch_dim)

    def forward_encoder(self, patches, idx_keep):
        tokens = self.patch_embed(patches)
        return self.encoder(get_at_index(tokens, idx_keep))

    def forward_decoder(self, x_encoded, idx_keep, idx_mask):
        batch_size = x_encoded.shape[0]
        x_decode = self.decoder.embed(x_encoded)
        x_masked = repeat_token(self.mask_token, (batch_size, self.sequence_length))
        x_masked = set_at_index(x_masked, idx_keep, x_decode.type_as(x_masked))
        x_decoded = self.decoder.decode(x_masked)
        x_pred = get_at_index(x_decoded, idx_mask)
        return self.decoder.predict(x_pred)

    def forward(self, patches, generator):
        idx_keep, idx_mask = random_token_mask(patches.shape[0], self.sequence_length, self.mask_ratio, generator)
        x_encoded = self.forward_encoder(patches, idx_keep)
        x_pred = self.forward_decoder(x_encoded, idx_keep, idx_mask)
        target = get_at_index(patches, idx_mask)
        return x_pred, target


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = MAE(sequence_length=17, patch_dim=48, encoder_dim=32, decoder_dim=24)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    patches = torch.randn(4, 17, 48)
    # mixed-precision training step (Lightning precision="bf16-mixed" does the same)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        x_pred, target = model(patches, g)
        loss = F.mse_loss(x_pred.float(), target)
    loss.backward()
    optimizer.step()
    assert x_pred.shape == target.shape == (4, 12, 48)
    assert torch.isfinite(loss)

    # the scatter in forward_decoder against a loop reference
    idx_keep, idx_mask = random_token_mask(4, 17, 0.75, torch.Generator().manual_seed(1))
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        x_decode = model.decoder.embed(model.forward_encoder(patches, idx_keep))
        x_masked = repeat_token(model.mask_token, (4, 17))
        filled = set_at_index(x_masked, idx_keep, x_decode.type_as(x_masked))
    reference = model.mask_token.detach().reshape(-1).repeat(4, 17, 1)
    for b in range(4):
        for j in range(idx_keep.shape[1]):
            reference[b, int(idx_keep[b, j])] = x_decode[b, j].float()
    assert filled.dtype == torch.float32
    assert torch.equal(filled, reference)
    print("ok")
