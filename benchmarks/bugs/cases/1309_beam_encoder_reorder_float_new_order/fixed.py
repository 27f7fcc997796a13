import torch
import torch.nn as nn


class ConvEncoder(nn.Module):
    def __init__(self, vocab_size, embed_dim, padding_idx=1):
        super().__init__()
        self.padding_idx = padding_idx
        self.embed_tokens = nn.Embedding(vocab_size, embed_dim, padding_idx=padding_idx)
        self.conv = nn.Conv1d(embed_dim, embed_dim, kernel_size=3, padding=1)

    def forward(self, src_tokens):
        x = self.embed_tokens(src_tokens)                 # B x T x C
        y = self.conv(x.transpose(1, 2)).transpose(1, 2)  # B x T x C
        encoder_padding_mask = src_tokens.eq(self.padding_idx)  # B x T
        return {'encoder_out': (y, x + y), 'encoder_padding_mask': encoder_padding_mask}

    def reorder_encoder_out(self, encoder_out, new_order):
        # new_order: (B * beam,) row of the source sentence each hypothesis reads
        encoder_out['encoder_out'] = (
            encoder_out['encoder_out'][0].index_select(0, new_order),
            encoder_out['encoder_out'][1].index_select(0, new_order),
        )
        encoder_out['encoder_padding_mask'] = \
            encoder_out['encoder_padding_mask'].index_select(0, new_order)
        return encoder_out


class SequenceGenerator:
    def __init__(self, encoder, beam_size=4):
        self.encoder = encoder
        self.beam_size = beam_size

    def expand_encoder_out(self, src_tokens):
        srclen = src_tokens.size(1)
        bsz = src_tokens.numel() / srclen
        encoder_out = self.encoder(src_tokens)
        # each sentence is repeated beam_size times: (B * beam,)
        new_order = torch.arange(bsz).view(-1, 1).repeat(1, self.beam_size).view(-1)
        new_order = new_order.to(src_tokens.device).long()
        return self.encoder.reorder_encoder_out(encoder_out, new_order)


if __name__ == '__main__':
    torch.manual_seed(0)
    encoder = ConvEncoder(vocab_size=50, embed_dim=8)
    generator = SequenceGenerator(encoder, beam_size=3)
    src_tokens = torch.randint(2, 50, (2, 5))  # B x T
    out = generator.expand_encoder_out(src_tokens)
    enc = encoder(src_tokens)
    for i in range(2 * 3):
        b = i // 3
        assert torch.equal(out['encoder_out'][0][i], enc['encoder_out'][0][b])
        assert torch.equal(out['encoder_out'][1][i], enc['encoder_out'][1][b])
        assert torch.equal(out['encoder_padding_mask'][i], enc['encoder_padding_mask'][b])
    assert out['encoder_out'][0].shape == (6, 5, 8)
    print('ok')
