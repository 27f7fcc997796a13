import torch
import torch.nn as nn


class AdditiveAttention(nn.Module):
    """Bahdanau-style soft attention over the encoded image grid.

    Args:
        encoder_dim: channels of the encoder feature map.
        decoder_dim: size of the LSTM decoder state.
        attention_dim: size of the joint attention space.
    """

    def __init__(self, encoder_dim, decoder_dim, attention_dim):
        super().__init__()
        self.encoder_att = nn.Linear(encoder_dim, attention_dim)
        self.decoder_att = nn.Linear(decoder_dim, attention_dim)
        self.v = nn.Parameter(torch.randn(attention_dim) / attention_dim ** 0.5)

    def forward(self, encoder_out, decoder_hidden):
        """
        Args:
            encoder_out: encoded image, shape (batch_size, num_pixels, encoder_dim).
            decoder_hidden: previous decoder state, shape (batch_size, decoder_dim).

        Returns:
            context: attention-weighted encoding, shape (batch_size, encoder_dim).
            alpha: attention weights, shape (batch_size, num_pixels).
        """
        att1 = self.encoder_att(encoder_out)
        att2 = self.decoder_att(decoder_hidden)
        scores = (torch.tanh(att1 + att2.unsqueeze(1)) * self.v).sum(dim=1)
        alpha = torch.softmax(scores, dim=1)
        context = (encoder_out * alpha.unsqueeze(2)).sum(dim=1)
        return context, alpha


if __name__ == "__main__":
    torch.manual_seed(0)
    attention = AdditiveAttention(encoder_dim=32, decoder_dim=20, attention_dim=24)
    encoder_out = torch.randn(3, 16, 32)
    h = torch.randn(3, 20)
    context, alpha = attention(encoder_out, h)
    print("context", tuple(context.shape), "alpha", tuple(alpha.shape))
