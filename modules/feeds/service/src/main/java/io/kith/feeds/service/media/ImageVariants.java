package io.kith.feeds.service.media;

import net.coobird.thumbnailator.Thumbnails;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The image step of the media pipeline, run on a worker thread: checks the dimensions in the header against the pixel
 * limit before anything is decoded (a 50000x50000 PNG of a few bytes would otherwise take 10 GB of heap), decodes
 * once with the EXIF orientation applied (Thumbnailator reads the Orientation tag), and re-encodes the pixels, so
 * that no metadata of the upload (EXIF with its GPS position, XMP, comments) survives in what is stored; then one
 * variant per configured size (longest side) smaller than the image.
 */
final class ImageVariants {

  /** Failure reason: the header announces more pixels than allowed. */
  static final String TOO_MANY_PIXELS = "too_many_pixels";

  /** One encoded image. */
  record Encoded(int width, int height, String contentType, byte[] bytes) {
  }

  /** The re-encoded original and its smaller variants, smallest first. */
  record Result(Encoded original, List<Encoded> variants) {
  }

  private final long maxPixels;
  private final List<Integer> sizes;

  ImageVariants(long maxPixels, List<Integer> sizes) {
    this.maxPixels = maxPixels;
    this.sizes = sizes.stream().sorted().distinct().toList();
  }

  /** Processes an uploaded image; throws {@link MediaRefused} for what cannot or may not be decoded. */
  Result process(byte[] upload) {
    String format = headerCheck(upload);
    // PNG keeps transparency; everything else becomes JPEG (GIF and WebP frames are flattened to their first)
    boolean png = format.equalsIgnoreCase("png");
    String outFormat = png ? "png" : "jpg";
    String contentType = png ? "image/png" : "image/jpeg";
    try {
      BufferedImage oriented = Thumbnails.of(new ByteArrayInputStream(upload)).scale(1.0)
          .imageType(png ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB).asBufferedImage();
      Encoded original = encode(oriented, oriented.getWidth(), oriented.getHeight(), outFormat, contentType);
      List<Encoded> variants = new ArrayList<>();
      int longest = Math.max(original.width(), original.height());
      for (int size : sizes) {
        if (size < longest) {
          BufferedImage small = Thumbnails.of(oriented).size(size, size).asBufferedImage();
          variants.add(encode(small, small.getWidth(), small.getHeight(), outFormat, contentType));
        }
      }
      return new Result(original, variants);
    } catch (IOException | RuntimeException e) {
      throw new MediaRefused("undecodable", "the image cannot be decoded: " + e.getMessage());
    }
  }

  /** The format name, after checking the header's dimensions without decoding the pixels. */
  private String headerCheck(byte[] upload) {
    try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(upload))) {
      Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
      if (!readers.hasNext()) {
        throw new MediaRefused("undecodable", "the image format cannot be decoded");
      }
      ImageReader reader = readers.next();
      try {
        reader.setInput(in, true, true);
        long pixels = (long) reader.getWidth(0) * reader.getHeight(0);
        if (pixels > maxPixels) {
          throw new MediaRefused(TOO_MANY_PIXELS, "the image has " + pixels + " pixels; at most " + maxPixels
              + " are accepted");
        }
        return reader.getFormatName();
      } finally {
        reader.dispose();
      }
    } catch (IOException e) {
      throw new MediaRefused("undecodable", "the image header cannot be read: " + e.getMessage());
    }
  }

  private static Encoded encode(BufferedImage image, int width, int height, String format, String contentType)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // a fresh encode of the pixels alone: ImageIO writes no EXIF, XMP or comment segments of its own
    Thumbnails.Builder<BufferedImage> builder = Thumbnails.of(image).scale(1.0).outputFormat(format);
    if (format.equals("jpg")) {
      builder.outputQuality(0.85f);
    }
    builder.toOutputStream(out);
    return new Encoded(width, height, contentType, out.toByteArray());
  }
}
