package io.kith.platform.testkit;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Real images for media tests, drawn and encoded by the test itself: a PNG, a JPEG carrying an EXIF block with an
 * orientation and a GPS position (the APP1 segment written byte by byte, as a phone writes it), a PNG header that
 * claims a huge size over a few bytes of data (a decompression bomb), and a check for EXIF segments in a JPEG.
 */
public final class TestImages {

  private TestImages() {
  }

  /** A {@code width} x {@code height} picture: a red left half and a blue right half. */
  public static BufferedImage picture(int width, int height) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(Color.RED);
    g.fillRect(0, 0, width / 2, height);
    g.setColor(Color.BLUE);
    g.fillRect(width / 2, 0, width - width / 2, height);
    g.dispose();
    return image;
  }

  /** A PNG of {@link #picture}. */
  public static byte[] png(int width, int height) {
    return encode(picture(width, height), "png");
  }

  /** Decodes an image (null when ImageIO cannot). */
  public static BufferedImage decode(byte[] bytes) {
    try {
      return ImageIO.read(new java.io.ByteArrayInputStream(bytes));
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * A JPEG of {@link #picture} with an EXIF APP1 segment right after the JFIF header: IFD0 holds Orientation
   * {@code orientation} (6 = the stored pixels must be turned 90° clockwise to be upright) and a GPS IFD pointer;
   * the GPS IFD holds latitude 48°51'N (a camera's location of the user's home).
   */
  public static byte[] jpegWithExif(int width, int height, int orientation) {
    byte[] jpeg = encode(picture(width, height), "jpg");
    byte[] app1 = exifSegment(orientation);
    // SOI (2 bytes), then APP0 (JFIF) of 2 + its length bytes: insert the APP1 after it
    int app0Length = ((jpeg[4] & 0xFF) << 8) | (jpeg[5] & 0xFF);
    int at = 4 + app0Length;
    byte[] out = new byte[jpeg.length + app1.length];
    System.arraycopy(jpeg, 0, out, 0, at);
    System.arraycopy(app1, 0, out, at, app1.length);
    System.arraycopy(jpeg, at, out, at + app1.length, jpeg.length - at);
    return out;
  }

  private static byte[] exifSegment(int orientation) {
    // TIFF, big endian. IFD0 at 8: 2 entries (Orientation, GPSInfo pointer), next IFD 0.
    // GPS IFD at 8 + 2 + 2*12 + 4 = 38: 2 entries (GPSLatitudeRef "N", GPSLatitude 3 RATIONALs at 68), next 0.
    ByteBuffer tiff = ByteBuffer.allocate(92);
    tiff.put("MM".getBytes(StandardCharsets.US_ASCII)).putShort((short) 42).putInt(8);
    tiff.putShort((short) 2);
    tiff.putShort((short) 0x0112).putShort((short) 3).putInt(1).putShort((short) orientation).putShort((short) 0);
    tiff.putShort((short) 0x8825).putShort((short) 4).putInt(1).putInt(38);
    tiff.putInt(0);
    tiff.putShort((short) 2);
    tiff.putShort((short) 1).putShort((short) 2).putInt(2).put((byte) 'N').put((byte) 0).putShort((short) 0);
    tiff.putShort((short) 2).putShort((short) 5).putInt(3).putInt(68);
    tiff.putInt(0);
    tiff.putInt(48).putInt(1).putInt(51).putInt(1).putInt(0).putInt(1);
    byte[] body = tiff.array();
    byte[] header = "Exif\0\0".getBytes(StandardCharsets.US_ASCII);
    int length = 2 + header.length + body.length;
    ByteBuffer segment = ByteBuffer.allocate(2 + length);
    segment.put((byte) 0xFF).put((byte) 0xE1).putShort((short) length).put(header).put(body);
    return segment.array();
  }

  /** Whether a JPEG carries an EXIF APP1 segment (walks the segments up to the image data). */
  public static boolean hasExif(byte[] jpeg) {
    int i = 2;
    while (i + 4 <= jpeg.length && (jpeg[i] & 0xFF) == 0xFF) {
      int marker = jpeg[i + 1] & 0xFF;
      if (marker == 0xDA) {
        return false; // start of scan: no more metadata segments
      }
      int length = ((jpeg[i + 2] & 0xFF) << 8) | (jpeg[i + 3] & 0xFF);
      if (marker == 0xE1 && i + 10 <= jpeg.length
          && new String(jpeg, i + 4, 4, StandardCharsets.US_ASCII).equals("Exif")) {
        return true;
      }
      i += 2 + length;
    }
    return false;
  }

  /**
   * A PNG whose header says {@code width} x {@code height} but whose data is a few bytes: decoding it in full would
   * take width x height x 4 bytes of heap; its header alone is cheap to read.
   */
  public static byte[] pngBomb(int width, int height) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A});
    ByteBuffer ihdr = ByteBuffer.allocate(13).putInt(width).putInt(height)
        .put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
    chunk(out, "IHDR", ihdr.array());
    chunk(out, "IDAT", new byte[] {0x78, (byte) 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01});
    chunk(out, "IEND", new byte[0]);
    return out.toByteArray();
  }

  private static void chunk(ByteArrayOutputStream out, String type, byte[] data) {
    byte[] name = type.getBytes(StandardCharsets.US_ASCII);
    CRC32 crc = new CRC32();
    crc.update(name);
    crc.update(data);
    out.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
    out.writeBytes(name);
    out.writeBytes(data);
    out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }

  private static byte[] encode(BufferedImage image, String format) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      if (!ImageIO.write(image, format, out)) {
        throw new IllegalStateException("no ImageIO writer for " + format);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
