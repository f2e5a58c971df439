/**
 * A deliberately tiny H.264 (ITU-T H.264 / ISO 14496-10) encoder: Constrained Baseline profile,
 * every picture an IDR made of one I slice whose macroblocks are all I_PCM (raw samples, §7.3.5).
 * No prediction, transform or entropy coding of residuals is needed, so it stays a few hundred
 * lines of TypeScript — at the price of ~1.5 bytes per pixel per frame, fine for small demo clips.
 */
import { BitWriter } from './bits.ts';
import type { RgbImage } from './png.ts';

/** NAL unit types (Table 7-1) and nal_ref_idc used here. */
const NAL_IDR_SLICE = 5;
const NAL_SPS = 7;
const NAL_PPS = 8;
const NAL_REF_IDC_HIGHEST = 3;

const PROFILE_BASELINE = 66;
/** constraint_set0_flag + constraint_set1_flag: Baseline that is also Main-decodable = Constrained Baseline (A.2.1.1). */
const CONSTRAINT_FLAGS_CONSTRAINED_BASELINE = 0b1100_0000;
const SLICE_TYPE_I_ALL = 7; // slice_type 7: I, and every slice of the picture is I (Table 7-6)
const MB_TYPE_I_PCM = 25; // Table 7-11
/** log2_max_frame_num = 4: frame_num is always 0 because every picture is an IDR. */
const LOG2_MAX_FRAME_NUM = 4;

/** Table A-1 limits: max macroblocks/s, max frame size in macroblocks, max video bit rate (kbit/s, Baseline). */
const LEVELS: ReadonlyArray<{ idc: number; maxMbPerSecond: number; maxFrameMbs: number; maxKbps: number }> = [
  { idc: 10, maxMbPerSecond: 1485, maxFrameMbs: 99, maxKbps: 64 },
  { idc: 11, maxMbPerSecond: 3000, maxFrameMbs: 396, maxKbps: 192 },
  { idc: 12, maxMbPerSecond: 6000, maxFrameMbs: 396, maxKbps: 384 },
  { idc: 13, maxMbPerSecond: 11880, maxFrameMbs: 396, maxKbps: 768 },
  { idc: 20, maxMbPerSecond: 11880, maxFrameMbs: 396, maxKbps: 2000 },
  { idc: 21, maxMbPerSecond: 19800, maxFrameMbs: 792, maxKbps: 4000 },
  { idc: 22, maxMbPerSecond: 20250, maxFrameMbs: 1620, maxKbps: 4000 },
  { idc: 30, maxMbPerSecond: 40500, maxFrameMbs: 1620, maxKbps: 10000 },
  { idc: 31, maxMbPerSecond: 108000, maxFrameMbs: 3600, maxKbps: 14000 },
  { idc: 32, maxMbPerSecond: 216000, maxFrameMbs: 5120, maxKbps: 20000 },
  { idc: 40, maxMbPerSecond: 245760, maxFrameMbs: 8192, maxKbps: 20000 },
  { idc: 41, maxMbPerSecond: 245760, maxFrameMbs: 8192, maxKbps: 50000 },
  { idc: 42, maxMbPerSecond: 522240, maxFrameMbs: 8704, maxKbps: 50000 },
  { idc: 50, maxMbPerSecond: 589824, maxFrameMbs: 22080, maxKbps: 135000 },
  { idc: 51, maxMbPerSecond: 983040, maxFrameMbs: 36864, maxKbps: 240000 },
  { idc: 52, maxMbPerSecond: 2073600, maxFrameMbs: 36864, maxKbps: 240000 },
];

/** Bits one I_PCM macroblock costs: 9-bit mb_type, up to 7 alignment bits, 384 samples. */
const PCM_MB_BITS = 9 + 7 + 384 * 8;

export interface H264Stream {
  /** Sequence and picture parameter set NAL units (no start codes), for the MP4 avcC box. */
  sps: Uint8Array;
  pps: Uint8Array;
  profileIdc: number;
  constraintFlags: number;
  levelIdc: number;
  /** Encodes one frame as a single IDR NAL unit (no start code / length prefix). */
  encodeFrame(image: RgbImage): Uint8Array;
}

export function createH264Stream(width: number, height: number, fps: number): H264Stream {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 2 || height < 2 || width % 2 || height % 2) {
    throw new Error(`H.264 4:2:0 needs even dimensions, got ${width}x${height}`);
  }
  const widthInMbs = Math.ceil(width / 16);
  const heightInMbs = Math.ceil(height / 16);
  const levelIdc = chooseLevel(widthInMbs, heightInMbs, fps);
  const sps = nalUnit(NAL_SPS, sequenceParameterSet(width, height, widthInMbs, heightInMbs, levelIdc));
  const pps = nalUnit(NAL_PPS, pictureParameterSet());
  let frameIndex = 0;

  return {
    sps,
    pps,
    profileIdc: PROFILE_BASELINE,
    constraintFlags: CONSTRAINT_FLAGS_CONSTRAINED_BASELINE,
    levelIdc,
    encodeFrame(image) {
      if (image.width !== width || image.height !== height) {
        throw new Error(`frame is ${image.width}x${image.height}, stream is ${width}x${height}`);
      }
      // Consecutive IDR pictures must differ in idr_pic_id (§7.4.3), so alternate 0/1.
      const idrPicId = frameIndex++ % 2;
      return nalUnit(NAL_IDR_SLICE, pcmSlice(toYCbCr420(image, widthInMbs * 16, heightInMbs * 16), idrPicId));
    },
  };
}

/** Lowest level (Table A-1) whose frame size, macroblock rate and bit rate admit this stream. */
function chooseLevel(widthInMbs: number, heightInMbs: number, fps: number): number {
  const frameMbs = widthInMbs * heightInMbs;
  const kbps = (frameMbs * PCM_MB_BITS * fps) / 1000;
  const fits = (level: (typeof LEVELS)[number]) =>
    frameMbs <= level.maxFrameMbs &&
    // A.3.1 (f): neither dimension may exceed sqrt(8 * MaxFS) macroblocks.
    Math.max(widthInMbs, heightInMbs) <= Math.sqrt(8 * level.maxFrameMbs) &&
    frameMbs * fps <= level.maxMbPerSecond &&
    kbps <= level.maxKbps;
  return (LEVELS.find(fits) ?? LEVELS[LEVELS.length - 1]!).idc;
}

/** seq_parameter_set_rbsp() (§7.3.2.1.1) with VUI (Annex E.1.1). */
function sequenceParameterSet(
  width: number,
  height: number,
  widthInMbs: number,
  heightInMbs: number,
  levelIdc: number,
): Uint8Array {
  const bits = new BitWriter()
    .u(8, PROFILE_BASELINE)
    .u(8, CONSTRAINT_FLAGS_CONSTRAINED_BASELINE) // constraint_set0..5 flags + reserved_zero_2bits
    .u(8, levelIdc)
    .ue(0) // seq_parameter_set_id
    .ue(LOG2_MAX_FRAME_NUM - 4) // log2_max_frame_num_minus4
    .ue(2) // pic_order_cnt_type 2: output order = decoding order, nothing to signal per slice
    .ue(1) // max_num_ref_frames: an IDR is itself marked as a reference picture
    .flag(false) // gaps_in_frame_num_value_allowed_flag
    .ue(widthInMbs - 1) // pic_width_in_mbs_minus1
    .ue(heightInMbs - 1) // pic_height_in_map_units_minus1
    .flag(true) // frame_mbs_only_flag: progressive
    .flag(true); // direct_8x8_inference_flag

  // Frame cropping trims the macroblock padding; for 4:2:0 frames the unit is 2 pixels (Eq. 7-19/7-20).
  const cropRight = (widthInMbs * 16 - width) / 2;
  const cropBottom = (heightInMbs * 16 - height) / 2;
  bits.flag(cropRight > 0 || cropBottom > 0);
  if (cropRight > 0 || cropBottom > 0) bits.ue(0).ue(cropRight).ue(0).ue(cropBottom);

  bits
    .flag(true) // vui_parameters_present_flag
    .flag(false) // aspect_ratio_info_present_flag (square pixels is the default)
    .flag(false) // overscan_info_present_flag
    .flag(true) // video_signal_type_present_flag: say "BT.601, limited range" so players don't guess
    .u(3, 5) // video_format: unspecified
    .flag(false) // video_full_range_flag: 16–235 luma
    .flag(true) // colour_description_present_flag
    .u(8, 6) // colour_primaries: SMPTE 170M (BT.601 525)
    .u(8, 6) // transfer_characteristics: SMPTE 170M
    .u(8, 6) // matrix_coefficients: SMPTE 170M (BT.601)
    .flag(false) // chroma_loc_info_present_flag
    .flag(false) // timing_info_present_flag: the MP4 sample table carries timing
    .flag(false) // nal_hrd_parameters_present_flag
    .flag(false) // vcl_hrd_parameters_present_flag
    .flag(false) // pic_struct_present_flag
    .flag(true) // bitstream_restriction_flag: lets decoders output each frame immediately
    .flag(true) // motion_vectors_over_pic_boundaries_flag
    .ue(0) // max_bytes_per_pic_denom
    .ue(0) // max_bits_per_mb_denom
    .ue(15) // log2_max_mv_length_horizontal (no motion vectors are ever sent)
    .ue(15) // log2_max_mv_length_vertical
    .ue(0) // max_num_reorder_frames
    .ue(1); // max_dec_frame_buffering
  return bits.trailingBits().toBytes();
}

/** pic_parameter_set_rbsp() (§7.3.2.2): CAVLC, one slice group, deblocking controllable per slice. */
function pictureParameterSet(): Uint8Array {
  return new BitWriter()
    .ue(0) // pic_parameter_set_id
    .ue(0) // seq_parameter_set_id
    .flag(false) // entropy_coding_mode_flag: CAVLC (Baseline has no CABAC)
    .flag(false) // bottom_field_pic_order_in_frame_present_flag
    .ue(0) // num_slice_groups_minus1
    .ue(0) // num_ref_idx_l0_default_active_minus1
    .ue(0) // num_ref_idx_l1_default_active_minus1
    .flag(false) // weighted_pred_flag
    .u(2, 0) // weighted_bipred_idc
    .se(0) // pic_init_qp_minus26
    .se(0) // pic_init_qs_minus26
    .se(0) // chroma_qp_index_offset
    .flag(true) // deblocking_filter_control_present_flag
    .flag(false) // constrained_intra_pred_flag
    .flag(false) // redundant_pic_cnt_present_flag
    .trailingBits()
    .toBytes();
}

interface YCbCr420 {
  width: number; // padded to whole macroblocks
  height: number;
  y: Uint8Array;
  cb: Uint8Array; // width/2 × height/2
  cr: Uint8Array;
}

/**
 * RGB → Y'CbCr with BT.601 limited-range coefficients (8-bit integer form), chroma from the mean
 * of each 2×2 block. Pixels outside the picture repeat the nearest edge pixel so the cropped-away
 * padding does not bleed a dark fringe into chroma at the borders.
 */
function toYCbCr420(image: RgbImage, paddedWidth: number, paddedHeight: number): YCbCr420 {
  const { width, height, data } = image;
  const y = new Uint8Array(paddedWidth * paddedHeight);
  const cb = new Uint8Array((paddedWidth / 2) * (paddedHeight / 2));
  const cr = new Uint8Array(cb.length);
  const offset = (px: number, py: number) => (Math.min(py, height - 1) * width + Math.min(px, width - 1)) * 3;

  for (let py = 0; py < paddedHeight; py++) {
    for (let px = 0; px < paddedWidth; px++) {
      const i = offset(px, py);
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      y[py * paddedWidth + px] = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
    }
  }
  for (let cy = 0; cy < paddedHeight / 2; cy++) {
    for (let cx = 0; cx < paddedWidth / 2; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const i = offset(cx * 2 + dx, cy * 2 + dy);
        r += data[i]!;
        g += data[i + 1]!;
        b += data[i + 2]!;
      }
      // Sums of four samples, so the usual ">> 8" becomes ">> 10".
      cb[cy * (paddedWidth / 2) + cx] = ((-38 * r - 74 * g + 112 * b + 512) >> 10) + 128;
      cr[cy * (paddedWidth / 2) + cx] = ((112 * r - 94 * g - 18 * b + 512) >> 10) + 128;
    }
  }
  return { width: paddedWidth, height: paddedHeight, y, cb, cr };
}

/** slice_layer_without_partitioning_rbsp() for an IDR picture of I_PCM macroblocks (§7.3.2.8, §7.3.3, §7.3.4). */
function pcmSlice(picture: YCbCr420, idrPicId: number): Uint8Array {
  const widthInMbs = picture.width / 16;
  const heightInMbs = picture.height / 16;
  const chromaWidth = picture.width / 2;
  const bits = new BitWriter(widthInMbs * heightInMbs * 390 + 16)
    // slice_header() §7.3.3
    .ue(0) // first_mb_in_slice
    .ue(SLICE_TYPE_I_ALL)
    .ue(0) // pic_parameter_set_id
    .u(LOG2_MAX_FRAME_NUM, 0) // frame_num
    .ue(idrPicId)
    // pic_order_cnt_type 2: no POC fields. dec_ref_pic_marking() for IDR (§7.3.3.3):
    .flag(false) // no_output_of_prior_pics_flag
    .flag(false) // long_term_reference_flag
    .se(0) // slice_qp_delta
    // I_PCM macroblocks have QP' = 0, so deblocking would be a no-op anyway; switch it off explicitly.
    .ue(1); // disable_deblocking_filter_idc

  // slice_data() §7.3.4: CAVLC I slices have no mb_skip_run; macroblocks follow in raster order.
  const samples = new Uint8Array(384);
  for (let mbY = 0; mbY < heightInMbs; mbY++) {
    for (let mbX = 0; mbX < widthInMbs; mbX++) {
      // macroblock_layer() §7.3.5: mb_type, pcm_alignment_zero_bits, then 256 luma + 64 Cb + 64 Cr samples.
      bits.ue(MB_TYPE_I_PCM).alignWithZeros();
      for (let row = 0; row < 16; row++) {
        const start = (mbY * 16 + row) * picture.width + mbX * 16;
        samples.set(picture.y.subarray(start, start + 16), row * 16);
      }
      for (let row = 0; row < 8; row++) {
        const start = (mbY * 8 + row) * chromaWidth + mbX * 8;
        samples.set(picture.cb.subarray(start, start + 8), 256 + row * 8);
        samples.set(picture.cr.subarray(start, start + 8), 320 + row * 8);
      }
      bits.writeBytes(samples);
    }
  }
  return bits.trailingBits().toBytes();
}

/** nal_unit(): one header byte, then the RBSP with emulation prevention applied (§7.3.1, §7.4.1). */
function nalUnit(type: number, rbsp: Uint8Array): Uint8Array {
  const escaped = escapeEmulation(rbsp);
  const nal = new Uint8Array(1 + escaped.length);
  nal[0] = (NAL_REF_IDC_HIGHEST << 5) | type; // forbidden_zero_bit 0
  nal.set(escaped, 1);
  return nal;
}

/**
 * Inserts emulation_prevention_three_byte (0x03) wherever two zero bytes are followed by a byte
 * <= 0x03, so no start code prefix (0x000001) can appear inside a NAL unit (§7.4.1.1).
 */
export function escapeEmulation(rbsp: Uint8Array): Uint8Array {
  const out = new Uint8Array(rbsp.length + Math.ceil(rbsp.length / 2) + 1);
  let length = 0;
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out[length++] = 3;
      zeros = 0;
    }
    out[length++] = byte;
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return out.slice(0, length);
}
