from typing import Optional, Tuple, Union

import torch
from torch import nn


def random_token_mask(
    size: Tuple[int, int],
    mask_ratio: float = 0.6,
    mask_class_token: bool = False,
    device: Optional[Union[torch.device, str]] = None,
):
    """Creates random token masks.

    Args:
        size: Size of the token batch for which to generate masks,
            should be (batch_size, sequence_length).
        mask_ratio: Percentage of tokens to mask.
        mask_class_token: If False the class token is never masked.

    Returns:
        A (index_keep, index_mask) tuple. index_keep contains the indices of the
        unmasked tokens and has shape (batch_size, num_keep). index_mask contains
        the indices of the masked tokens and has shape
        (batch_size, sequence_length - num_keep).
    """
    batch_size, sequence_length = size
    num_keep = int(sequence_length * (1 - mask_ratio))
    noise = torch.rand(batch_size, sequence_length, device=device)
    if not mask_class_token and sequence_length > 0:
        # make sure that class token is not masked
        noise[:, 0] = -1
        num_keep = max(1, num_keep)
    indices = torch.argsort(noise, dim=1)
    return indices[:, :num_keep], indices[:, num_keep:]


def expand_index_like(index: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    """Expands the index along the last dimension of the input tokens.

    Args:
        index: Index tensor with shape (batch_size, index_length).
        tokens: Tokens tensor with shape (batch_size, sequence_length, dim).

    Returns:
        Index tensor with shape (batch_size, index_length, dim).
    """
    dim = tokens.shape[-1]
    return index.unsqueeze(-1).expand(-1, -1, dim)


def get_at_index(tokens: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """Selects tokens at index.

    Args:
        tokens: Token tensor with shape (batch_size, sequence_length, dim).
        index: Index tensor with shape (batch_size, index_length).

    Returns:
        Token tensor with shape (batch_size, index_length, dim).
    """
    index = expand_index_like(index, tokens)
    return torch.gather(tokens, 1, index)


def set_at_index(tokens: torch.Tensor, index: torch.Tensor, value: torch.Tensor) -> torch.Tensor:
    """Copies all values into the input tensor at the given indices.

    Args:
        tokens: Tokens tensor with shape (batch_size, sequence_length, dim).
        index: Index tensor with shape (batch_size, index_length).
        value: Value tensor with shape (batch_size, index_length, dim).
    """
    index = expand_index_like(index, tokens)
    return torch.scatter(tokens, 1, index, value)


def mask_at_index(tokens: torch.Tensor, index: torch.Tensor, mask_token: torch.Tensor) -> torch.Tensor:
    """Replaces the tokens at index with the mask token.

    Args:
        tokens: Tokens tensor with shape (batch_size, sequence_length, dim).
        index: Index tensor with shape (batch_size, index_length).
        mask_token: Mask token with shape (1, 1, dim).
    """
    mask = tokens.new_zeros(tokens.shape)
    mask = set_at_index(mask, index, 1)
    return (1 - mask) * tokens + mask * mask_token


def patchify(images: torch.Tensor, patch_size: int) -> torch.Tensor:
    """Converts a batch of images (batch_size, C, H, W) into patches
    (batch_size, num_patches, patch_size * patch_size * C)."""
    N, C, H, W = images.shape
    p = patch_size
    patches = images.reshape(N, C, H // p, p, W // p, p)
    patches = torch.einsum("nchpwq->nhwpqc", patches)
    return patches.reshape(N, (H // p) * (W // p), p * p * C)


class MAEBackbone(nn.Module):
    def __init__(self, image_size=32, patch_size=8, hidden_dim=32):
        super().__init__()
        self.patch_size = patch_size
        self.seq_length = (image_size // patch_size) ** 2 + 1
        self.conv_proj = nn.Conv2d(3, hidden_dim, kernel_size=patch_size, stride=patch_size)
        self.class_token = nn.Parameter(torch.zeros(1, 1, hidden_dim))
        self.pos_embedding = nn.Parameter(torch.randn(1, self.seq_length, hidden_dim) * 0.02)
        layer = nn.TransformerEncoderLayer(hidden_dim, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.encoder_layers = nn.TransformerEncoder(layer, num_layers=2)

    def images_to_tokens(self, images, prepend_class_token=True):
        x = self.conv_proj(images).flatten(2).transpose(1, 2)
        if prepend_class_token:
            x = torch.cat([self.class_token.expand(x.shape[0], -1, -1), x], dim=1)
        return x

    def encoder(self, tokens):
        return self.encoder_layers(tokens + self.pos_embedding)


class SimMIM(nn.Module):
    def __init__(self, backbone: MAEBackbone, mask_ratio: float = 0.75):
        super().__init__()
        decoder_dim = backbone.class_token.shape[-1]
        self.mask_ratio = mask_ratio
        self.patch_size = backbone.patch_size
        self.sequence_length = backbone.seq_length
        self.mask_token = nn.Parameter(torch.randn(1, 1, decoder_dim))
        self.backbone = backbone
        # the decoder is a simple linear layer
        self.decoder = nn.Linear(decoder_dim, backbone.patch_size**2 * 3)

    def forward_encoder(self, images, batch_size, idx_mask):
        # pass all the tokens to the encoder, both masked and non masked ones
        tokens = self.backbone.images_to_tokens(images, prepend_class_token=True)
        tokens_masked = mask_at_index(tokens, idx_mask, self.mask_token)
        return self.backbone.encoder(tokens_masked)

    def forward_decoder(self, x_encoded):
        return self.decoder(x_encoded)

    def forward(self, images):
        batch_size = images.shape[0]
        idx_keep, idx_mask = random_token_mask(
            size=(batch_size, self.sequence_length),
            mask_ratio=self.mask_ratio,
            device=images.device,
        )

        # Encoding...
        x_encoded = self.forward_encoder(images, batch_size, idx_mask)
        x_encoded_masked = get_at_index(x_encoded, idx_mask)

        # Decoding...
        x_out = self.forward_decoder(x_encoded_masked)

        # get image patches for masked tokens
        patches = patchify(images, self.patch_size)
        # must adjust idx_mask for missing class token
        target = get_at_index(patches, idx_mask - 1)
        return x_out, target, idx_keep, idx_mask


def reference_forward(model, images, idx_mask):
    tokens = model.backbone.images_to_tokens(images)
    B, L, D = tokens.shape
    masked_tokens = tokens.clone()
    for b in range(B):
        for j in idx_mask[b].tolist():
            masked_tokens[b, j] = model.mask_token[0, 0]
    encoded = model.backbone.encoder(masked_tokens)
    patches = patchify(images, model.patch_size)
    outs, targets = [], []
    for b in range(B):
        outs.append(torch.stack([model.decoder(encoded[b, j]) for j in idx_mask[b].tolist()]))
        targets.append(torch.stack([patches[b, j - 1] for j in idx_mask[b].tolist()]))
    return torch.stack(outs), torch.stack(targets)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SimMIM(MAEBackbone()).eval()
    images = torch.randn(4, 3, 32, 32)
    with torch.no_grad():
        x_out, target, idx_keep, idx_mask = model(images)
        ref_out, ref_target = reference_forward(model, images, idx_mask)
    assert (idx_mask != 0).all()
    assert torch.allclose(x_out, ref_out, atol=1e-5), (x_out - ref_out).abs().max()
    assert torch.equal(target, ref_target)
    print("ok")
